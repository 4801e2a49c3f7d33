// Package orders is the players' side of rallyjudge: it reads order sheets written by
// mail (the postal plain-text style of seed 003 "Sample Orders", or YAML), compiles them
// into a structured [Sheet], checks a sheet against the game ([Validate]), turns it into
// the engine's [adjudicator.Orders] with a [adjudicator.Decider] that judges conditional
// orders at the decision point, and forecasts a program's path ([Forecast]).
//
// Three stages, three powers (STYLE.md, "Narrow interfaces per stage"):
//
//	text.go, yaml.go, lang.go   parse: text → Sheet; never looks at a game
//	format.go                   print: Rule → canonical text that parses back
//	validate.go                 validate: Sheet × game → Report; never changes the game
//	decider.go, forecast.go     compile for the engine; the adjudicator alone decides
//	                            what orders do (forecast only asks adjudicator.Simulate)
//
// It must not do mail, storage or I/O of its own (the caller hands it bytes), must not
// log or echo a sheet's secret, and must not decide any rule: legality of a program is
// checked against the hand and locked registers the engine dealt, and movement comes
// from the engine. The language is documented in docs/orders.md.
package orders
