"""The site's own date formats, over Django's for each language (``FORMAT_MODULE_PATH``):
the short ones name the month, so that "3/12/26" never reads as 12 March to one reader
and 3 December to another ("3 dic 2026, 18:09" and "3 Dec 2026, 18:09")."""
