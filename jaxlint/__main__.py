import sys

from jaxlint.cli import main

sys.exit(main())
