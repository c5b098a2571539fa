# attack: await at module level (a compile-stage error)
await something
