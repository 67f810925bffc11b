"""The runtime: the real Scratch editor and VM in a real browser.

The headless browser and its page pool (`browser`, `page_reuse`, sized by `pool_size`), the
loopback editor server (`server`), the studio's page scripts (`page_scripts`, the only way a
script reaches a page), the evaluator of untrusted scripts (`evaluator`, `eval_console`), the
editor editions (`editions`) and the choice of clock (`clock_agreement`). Imports
`studio.models` and `core`.
"""

__all__: list[str] = []
