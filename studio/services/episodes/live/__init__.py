"""Live runs in the studio's own editor: episodes that drive the embedded page, step by step.

`controls` holds the pause / step / resume / stop gate and the delay between actions, `runner`
runs a built-in agent on such an episode, and `window_pages` lends the embedded page to
episodes (also those an external agent starts through the HTTP API). The window gives that
page as an object with Playwright's page API built on Qt (studio.views.live.page): the editor
is never reachable through a debugging endpoint.
"""

__all__: list[str] = []
