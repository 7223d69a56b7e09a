"""GDL, the language of rule sheets: terms, rules, the KIF parser, lint, the Datalog reasoner."""
