"""The embedded Scratch editor: the view that hosts it and the page that talks to it."""
