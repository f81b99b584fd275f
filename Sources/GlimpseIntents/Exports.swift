// GlimpseIntents is the home of what Apple's App Intents does not define: the engine's named property
// comparisons (`QueryableProperties`, `PropertyComparator`, `EntityQueryComparison`, `PropertySort`),
// their text syntax, and ranked text search. Apple's vocabulary itself lives in AppIntents and
// VisualIntelligence, which every user of this module sees.
@_exported public import AppIntents
@_exported public import VisualIntelligence
