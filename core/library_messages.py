"""The libraries' messages the site's English re-words, kept in ``locale/en``.

DRF builds its length messages without a plural form ("Ensure this field has at least 1
elements."), so ``locale/en`` gives them words that read right for 1 as for 5, as
``locale/es`` does for the Spanish (by hand). ``makemessages`` keeps only the msgids it
finds in the project's source, and these are DRF's: the marks below keep them in
``locale/en`` so that their English entries are not dropped as obsolete. Nothing imports
this module; the texts are DRF's, word for word.
"""

from django.utils.translation import gettext_noop

#: DRF's ``CharField`` and ``ListField`` length messages (``rest_framework.fields``).
DRF_LENGTH_MESSAGES = (
    gettext_noop("Ensure this field has no more than {max_length} characters."),
    gettext_noop("Ensure this field has at least {min_length} characters."),
    gettext_noop("Ensure this field has no more than {max_length} elements."),
    gettext_noop("Ensure this field has at least {min_length} elements."),
)
