"""The checks of a task: the Checks and Review panels and the controller that runs them."""
