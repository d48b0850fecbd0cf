// `import TodoStore` alone gives an app every type it names: the store's own (`TodoStore`,
// `TodoTask`, `TodoStoreError`) and TodoTxt's value types it meets in them (`TodoDate`,
// `Priority`, `TodoDocument`, ...). Re-exported whole rather than by typealias: a typealias per
// type would be a second list of names to keep in step with TodoTxt, and extensions an app writes
// on `TodoDate` must be on the one type (docs/store.md, "One import").
@_exported import TodoTxt
