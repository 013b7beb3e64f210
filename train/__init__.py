"""Learning managers (MaskablePPO self-play arrives with the training issue)."""
