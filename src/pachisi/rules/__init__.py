"""The pure rules core: board, cowries, rulesets, state, actions and the transition function."""
