"""Qt widgets of the studio; they talk to the core through studio.services."""

from studio.views.widgets.qt_workarounds import make_bools_immortal, make_none_immortal

make_none_immortal()
make_bools_immortal()
