"""Qt pieces that know no feature of the studio: dialogs, the settings file, tables, an elided
label, a banner strip, background coroutines and a work-around for a Qt/Python bug."""
