"""GDL rule sheets: parser (syntax, parser), static checks, Datalog reasoner, GdlGame."""
