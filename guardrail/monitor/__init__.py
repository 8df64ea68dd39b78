"""The citation-support monitor: sampling, queues, results, workers and reports (CONTRACT section 8)."""
