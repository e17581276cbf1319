import sys

from jaxlint.hosts.cli import main

sys.exit(main())
