"""Live runs in the studio's own editor: episodes that drive the embedded page, step by step.

`attach` reaches the window's QtWebEngine page through its remote-debugging endpoint with
Playwright, `controls` holds the pause / step / resume / stop gate and the delay between
actions, `runner` runs a built-in agent on such an episode, and `window_pages` lends the
embedded page to episodes (also those an external agent starts through the HTTP API).
"""
