"""Bringing data in: the official data files turned into a pack (`build`), installed (`install`,
`pack import` and `pack update`), compared between versions (`diff`), the official icons
(`icons`), and almanac documents read into our data layout (`almanac`). What a pack is on disk
(its store and sources) lives in the database layer, `scriptforge.db`."""
