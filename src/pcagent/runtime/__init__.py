"""The run layer: the loop that drives the agents, the human in it, and the safety guard."""
