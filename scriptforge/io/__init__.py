"""Files, caches, the terminal and processes: what every other layer may use. Writing files whole
(`fileio`), the one reader of user files and its guard (`userfiles`), YAML data files checked
against their schemas (`datafiles`), where things live (`paths`), the one network fetch (`fetch`),
remote images kept in the user cache (`imagecache`), what reaches the terminal (`terminal`),
batches of forked workers (`batch`) and the errors a user can cause (`errors`)."""
