"""Scripts in the official JSON format: reading one (`script`, `schema`), its one analysis
(`analysis`), the tokens it needs (`tokens`), and writing one: making and editing (`edit`),
homebrew characters (`homebrew`), exporting (`export`) and migrating community scripts (`migrate`)."""
