"""Charts (one function each, one style) and the report builder."""
