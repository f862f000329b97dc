"""What the stages share of the running process: child processes that end with their parent,
modules loaded when first used, the extras installed."""
