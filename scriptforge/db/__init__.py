"""Loading and looking up: the character database (`database`), the official facts that hold
without a pack (`official`), the other games (`games`), the user's translation layer
(`translations`), and what a data pack is on disk (`pack_store`, `pack_sources`)."""
