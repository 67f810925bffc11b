"""The agent HTTP API: episodes of benchmark tasks driven over JSON, Qt-free, on asyncio.

- `server`: `ApiServer` (uvicorn on the current loop) and the token and host checks;
- `app`: the routes (`ApiApp`, FastAPI) over an episode manager (the Protocols there);
- `guard`, `heads`, `timing`: the bearer-token guard, head deadlines, request timing;
- `schemas`: the request and response bodies;
- `client`: a Python client for the API (importing it loads no server).
"""

__all__: list[str] = []
