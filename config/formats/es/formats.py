"""Spanish short dates with the month's lower-case abbreviation, as Spanish writes it:
"3 dic 2026" (Django's ``M`` capitalises it, "3 Dic 2026"; ``b`` does not)."""

SHORT_DATE_FORMAT = "j b Y"
SHORT_DATETIME_FORMAT = "j b Y, H:i"
