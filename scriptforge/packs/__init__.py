"""Data packs: the official data files turned into scriptforge's own data layout, one module a job.

- `store`: where packs live on disk, the manifest (`Manifest`), reading a pack and writing one
  whole in one rename, the sha256 check before a pack is used (the database's layer: it reads
  packs through here);
- `sources`: the English each official translation was made from, and which went stale (also
  the database's layer);
- `build`: recognising and checking the official files and turning them into a pack's files;
- `install`: `pack import` and `pack update` (languages joined or replaced, `--only`);
- `diff`: what changed between two versions of the official data, as records.

This file imports nothing, so that the database can read packs through `store` without the rest.
"""
