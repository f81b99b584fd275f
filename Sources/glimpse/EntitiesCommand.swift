import ArgumentParser
import GlimpseCatalog
import GlimpseIntents
import GlimpseTerminalText
import GlimpseWire

/// `glimpse entities`: the catalog's entity queries (by id, by text, by property).
struct EntitiesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entities",
        abstract: "Look up places and collections by id, by text or by property.",
        discussion: """
            Three kinds of lookup:
              --id ID…       the entities with these ids, in the order given
              --search TEXT  word-prefix search, no case or accents ("eif tow")
              (neither)      a property query over --type place (default) or
                             collection: every --where holds (--mode all) or
                             at least one does (--mode any); none selects all

            --where 'PROPERTY OPERATOR VALUE' with OPERATOR one of
              ==  !=  contains  hasPrefix  hasSuffix  <  <=  >  >=
            or 'PROPERTY between LOW and HIGH' (inclusive) or 'PROPERTY isNil'.
            Text compares without case or accents; quotes around a value are
            optional. On a list property, contains means "has this element".

            --sort KEY sorts ascending, --sort -KEY descending; repeat for
            tie-breakers. The sort is stable and nil values sort last.

            Place properties:
              \(Self.describe(PlaceQuery.queryableProperties))
            Collection properties:
              \(Self.describe(CollectionQuery.queryableProperties))

            Examples:
              glimpse entities --id eiffel-tower towers
              glimpse entities --search chateau
              glimpse entities --where 'kind == lake' \\
                --where 'name hasPrefix Sun' --mode any --sort name --limit 5
              glimpse entities --type collection --where 'placeCount >= 10' \\
                --sort -placeCount
            """
    )

    /// Which entity type a property query or search covers.
    enum EntityType: String, ExpressibleByArgument, CaseIterable {
        case place, collection, all
    }

    @Option(name: .customLong("catalog"), help: "The catalog folder holding catalog.json.")
    var catalog = "Images"

    @Option(name: .customLong("id"), parsing: .upToNextOption, help: "Entity ids to look up.")
    var ids: [String] = []

    @Option(name: .customLong("search"), help: "Text to search for.")
    var search: String?

    @Option(name: .customLong("where"), help: "A property comparison (repeatable); see the syntax above.")
    var comparisons: [String] = []

    @Option(name: .customLong("mode"), help: "all: every --where holds; any: at least one does.")
    var mode: Mode = .all

    @Option(name: .customLong("sort"), parsing: .unconditionalSingleValue,
            help: "A sort key, -KEY for descending (repeatable).")
    var sorts: [String] = []

    @Option(name: .customLong("limit"), help: "The most entities to print.")
    var limit: Int?

    @Option(name: .customLong("type"), help: "place, collection or all (default: all for --id and --search, place otherwise).")
    var type: EntityType?

    @Flag(name: .customLong("json"), help: "Print JSON.")
    var json = false

    /// `all` or `any`, mapped to App Intents' `.and` / `.or`.
    enum Mode: String, ExpressibleByArgument {
        case all, any
        var comparatorMode: EntityQueryComparatorMode { self == .all ? .and : .or }
    }

    func validate() throws {
        let selectors = [!ids.isEmpty, search != nil, !comparisons.isEmpty].filter { $0 }.count
        guard selectors <= 1 else { throw ValidationError("use one of --id, --search and --where at a time") }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, got \(limit)") }
        if !ids.isEmpty || search != nil, !sorts.isEmpty {
            throw ValidationError("--sort applies to property queries only")
        }
        if comparisons.isEmpty == false || !sorts.isEmpty, type == .all {
            throw ValidationError("a property query needs --type place or --type collection")
        }
    }

    func run() async throws {
        let loaded: Catalog
        do { loaded = try Catalog.load(directory: catalog) } catch { throw IntentsCommandError(error.description) }
        let places = PlaceQuery(catalog: loaded)
        let collections = CollectionQuery(catalog: loaded)
        var entities: [EntityJSON] = []

        if !ids.isEmpty {
            for id in ids {
                if type != .collection, let place = loaded.place(id: id) { entities.append(EntityJSON(place)) }
                if type != .place, let collection = loaded.collection(id: id) { entities.append(EntityJSON(collection)) }
            }
        } else if let search {
            let types: Set<CatalogEntityType> = switch type {
            case .place?: [.place]
            case .collection?: [.collection]
            case .all?, nil: [.place, .collection]
            }
            entities = loaded.searchEntities(search, types: types)
        } else {
            let sortKeys = sorts.map(PropertySort.init(parsing:))
            do throws(EntityQueryError) {
                if type == .collection {
                    let parsed = try comparisons.map(CollectionQuery.queryableProperties.comparison(parsing:))
                    entities = try CollectionQuery.queryableProperties.apply(
                        to: collections.catalog.collections, matching: parsed, mode: mode.comparatorMode,
                        sortedBy: sortKeys, limit: limit
                    ).map(EntityJSON.init)
                } else {
                    let parsed = try comparisons.map(PlaceQuery.queryableProperties.comparison(parsing:))
                    entities = try PlaceQuery.queryableProperties.apply(
                        to: places.catalog.places, matching: parsed, mode: mode.comparatorMode,
                        sortedBy: sortKeys, limit: limit
                    ).map(EntityJSON.init)
                }
            } catch {
                throw IntentsCommandError(error.description)
            }
        }
        if let limit { entities = Array(entities.prefix(limit)) }
        let listing = EntityListJSON(entities: entities)
        print(json ? listing.prettyJSON() : listing.text())
    }

    /// The properties as `name (type)` (`type?` when it may be nil), wrapped at 72 columns.
    private static func describe<Entity>(_ properties: QueryableProperties<Entity>) -> String {
        let items = properties.properties.map { "\($0.name) (\($0.valueType)\($0.isOptional ? "?" : ""))" }
        var lines: [String] = [""]
        for item in items {
            let candidate = lines[lines.count - 1].isEmpty ? item : lines[lines.count - 1] + ", " + item
            if candidate.count > 72, !lines[lines.count - 1].isEmpty {
                lines[lines.count - 1] += ","
                lines.append(item)
            } else {
                lines[lines.count - 1] = candidate
            }
        }
        return lines.joined(separator: "\n  ")
    }
}
