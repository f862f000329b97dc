"""Jinja2 templates and static assets of the site (a package only so that the wheel ships them)."""
