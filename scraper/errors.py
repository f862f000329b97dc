"""The one error type every scraper stage raises for bad input."""


class InputError(ValueError):
    """A document that cannot be read as a Comprehensive Rules text; the message says why."""
