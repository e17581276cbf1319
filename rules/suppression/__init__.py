"""Rules about jaxlint's own suppression comments (``# noqa``)."""
