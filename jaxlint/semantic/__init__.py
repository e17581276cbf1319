"""The semantic model: scopes, qualified names, traced functions and abstract values."""
