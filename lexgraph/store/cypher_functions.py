"""The functions user Cypher may call, per engine: an allow-list, so that a plugin function (APOC's
``apoc.cypher.runFirstColumnSingle`` runs Cypher of its own; others read files) is refused however it is spelt.

Each list is the engine's own built-in functions as it lists them (Neo4j 5.26 ``SHOW FUNCTIONS`` without plugins;
LadybugDB ``CALL show_functions()``, scalar, aggregate and rewrite functions), less those a read has no business
calling, plus the few call forms that are syntax rather than functions. Names compare case-insensitively, as both
engines resolve built-ins. A function an engine adds in a later version is refused until it is listed here.
"""

from __future__ import annotations

# Not listed: file() and linenumber() (LOAD CSV only), graph.byName/graph.byElementId (composite databases, which
# `USE` would reach and which a query may not open).
NEO4J_FUNCTIONS = frozenset(name.lower() for name in """
abs acos all any asin atan atan2 avg btrim ceil char_length character_length coalesce collect cos cot count date
date.realtime date.statement date.transaction date.truncate datetime datetime.fromepoch datetime.fromepochmillis
datetime.realtime datetime.statement datetime.transaction datetime.truncate degrees duration duration.between
duration.inDays duration.inMonths duration.inSeconds e elementId endNode exists exp floor haversin head id isEmpty
isNaN keys labels last left length localdatetime localdatetime.realtime localdatetime.statement
localdatetime.transaction localdatetime.truncate localtime localtime.realtime localtime.statement
localtime.transaction localtime.truncate log log10 lower ltrim max min nodes none normalize nullIf percentileCont
percentileDisc pi point point.distance point.withinBBox properties radians rand randomUUID range reduce
relationships replace reverse right round rtrim sign sin single size split sqrt startNode stdev stdevp substring
sum tail tan time time.realtime time.statement time.transaction time.truncate timestamp toBoolean toBooleanList
toBooleanOrNull toFloat toFloatList toFloatOrNull toInteger toIntegerList toIntegerOrNull toLower toString
toStringList toStringOrNull toUpper trim type upper valueType vector.similarity.cosine
vector.similarity.euclidean
shortestPath allShortestPaths
""".split())  # noqa: SIM905 (a list to read, as the engines print it)

# Not listed: nextval (advances a sequence, a write), setseed (changes the connection's random state), the table
# functions (read_csv, read_parquet, …: only `CALL`, and its own allow-list, reaches those).
LADYBUG_FUNCTIONS = frozenset("""
abs acos all any array_append array_cat array_concat array_contains array_cosine_similarity array_cross_product
array_distance array_dot_product array_extract array_has array_indexof array_inner_product array_position
array_prepend array_push_back array_push_front array_slice array_squared_distance array_value asin atan atan2 avg
bitshift_left bitshift_right bitwise_and bitwise_or bitwise_xor blob cardinality cast cbrt ceil ceiling century
coalesce collect concat concat_ws constant_or_null contains cos cost cot count count_if count_star current_date
current_timestamp currval date date_part date_trunc datepart datetrunc dayname decode degrees duration element_at
encode end_node ends_with epoch_ms equals error even factorial floor gamma gen_random_uuid greater_than
greater_than_equals greatest hash histogram id ifnull initcap internal_id interval is_acyclic is_trail keys label
labels last_day lcase least left length less_than less_than_equals levenshtein lgamma list_any_value list_append
list_cat list_concat list_contains list_creation list_distinct list_element list_extract list_filter list_has
list_has_all list_has_any list_indexof list_max list_min list_position list_prepend list_product list_reduce
list_reverse list_reverse_sort list_slice list_sort list_sum list_to_string list_transform list_unique ln log log10
log2 lower lpad ltrim make_date map map_extract map_keys map_values max md5 min monthname negate nodes none
not_equals nullif octet_length offset percentilecont percentiledisc pi pow prefix properties radians random range
regexp_extract regexp_extract_all regexp_full_match regexp_matches regexp_replace regexp_split_to_array
relationships rels repeat replace reverse right round rowid rpad rtrim sha256 sign sin single size split_part sqrt
start_node starts_with str_split string string_split string_to_array struct_extract struct_pack substr substring
suffix sum tan time_bucket timestamp to_blob to_bool to_date to_days to_double to_epoch_ms to_float to_hours
to_int128 to_int16 to_int32 to_int64 to_int8 to_interval to_microseconds to_milliseconds to_minutes to_months
to_seconds to_serial to_string to_timestamp to_uint128 to_uint16 to_uint32 to_uint64 to_uint8 to_uuid to_years
tolower toupper trim typeof ucase union_extract union_tag union_value upper uuid
""".split())  # noqa: SIM905 (a list to read, as the engines print it)
