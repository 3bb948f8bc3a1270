"""Regenerate the published schemas: `python -m cortex.schemas`."""
from cortex.schemas import write_all

for path in write_all():
    print(path)
