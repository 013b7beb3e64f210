"""Playing managers against each other, benchmarks and reports."""
