"""English short dates with the month's name, day first as the Spanish: "3 Dec 2026"
(Django's "12/03/2026" is March to some readers), on a 24-hour clock as the site's
Spanish."""

SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
