"""What the stages share of the operating system: child processes that end with their parent."""
