"""Safety: the keystroke guard between a decision and its execution (its rules, what an action can
reach), and the effect layer behind it (HOME snapshots, file and mail effects, unsaved work)."""
