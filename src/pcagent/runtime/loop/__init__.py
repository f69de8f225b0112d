"""The step loop and what drives a step: starting, resuming and rewinding a run, each step's stages,
the subtasks' books, the escalation policy, the swappable parts and the person in the loop."""
