"""The checksums migrations had when a checksum hashed a migration file's whole text, comments included.

A store records each migration's checksum when it applies it, and `doctor` compares it with the file's to find a
migration edited after it was applied. Stores migrated before the checksum covered the statements alone recorded
the whole-text checksums below. Each is paired with the statements' checksum of that same text, so such a store
opens without complaint while the statements are unchanged (the comments may since have been rewritten), and is
told of an edit to a statement as any store is. Never edit this table: a new migration needs no line here.
"""

from __future__ import annotations

#: dialect → version → (the whole text's checksum a store recorded, the checksum of that text's statements)
WHOLE_TEXT: dict[str, dict[int, tuple[str, str]]] = {
    "embedded": {
        1: ("2139b4c58e4707d0", "118f914fddb6cd07"),  # V001__statutes
        2: ("d77a03e888afa85e", "4a7373e5fe0663a2"),  # V002__statute_citations
        3: ("08b4fb1cf917b5b7", "d472b54767fa552b"),  # V003__documents
        4: ("dd0a609ab2b660c9", "ecdae70c546cff60"),  # V004__search_indexes
        5: ("3bf2c37eed63742e", "fee7b75335d0296c"),  # V005__answers
        6: ("4b49c99665146527", "7281f6007d25299d"),  # V006__knowledge
        7: ("8737c0f7df30f2a8", "878c7d7073c12c2b"),  # V007__honest_periods
        8: ("d5b5f44412ee08e8", "586709fc7c245139"),  # V008__knowledge_entry_1_0
        9: ("4691443aaa654d7e", "9b8fc792c1a12423"),  # V009__enacting_formula
        10: ("cd07c1e052fdad01", "c71f65c6b6c9082b"),  # V010__egov_sync
        11: ("55749533c5bcd9ad", "431ee25ba7b49965"),  # V011__period_properties
        12: ("4783671e123c7976", "dc5654276e51bc7a"),  # V012__names
        13: ("5f758323db570ebb", "ecdae70c546cff60"),  # V013__search_entries
        14: ("339d4af91bb559a6", "708eeaf0aee80b2c"),  # V014__paragraph_titles
        15: ("3b4520915d441cde", "351610aa74305ef5"),  # V015__version_titles
        16: ("da2f2b6c8f1766b4", "e3b0c44298fc1c14"),  # V016__search_entry_kind
    },
    "neo4j": {
        1: ("6febe54a982e6919", "574d2a422df033a6"),  # V001__statutes
        2: ("43126f8b0830d507", "8c8628e9dc2144b0"),  # V002__statute_citations
        3: ("35022de8e551db10", "9365a01be8e1a68d"),  # V003__documents
        4: ("f8373050647d9cc2", "0e040ce860a38197"),  # V004__search_indexes
        5: ("47c5b8e335faeb14", "9cc3f6c309c487e0"),  # V005__answers
        6: ("dc873f67c95c5544", "15129f004e0f4238"),  # V006__knowledge
        7: ("d3b6b03251a96e28", "e3b0c44298fc1c14"),  # V007__honest_periods
        8: ("c3c3341eef4bd370", "e3b0c44298fc1c14"),  # V008__knowledge_entry_1_0
        9: ("02b07a686a29e275", "e3b0c44298fc1c14"),  # V009__enacting_formula
        10: ("82523912064048e7", "e3b0c44298fc1c14"),  # V010__egov_sync
        11: ("0a5283aa200f3f77", "a2cab32152d37a63"),  # V011__period_properties
        12: ("dcf430e2121fa1f8", "09aa022576bbd9df"),  # V012__names
        13: ("fa94d79d335b5a71", "68ca38f91dceafa2"),  # V013__search_entries
        14: ("d53c9fa78b13be46", "fbc12299011782dd"),  # V014__paragraph_titles
        15: ("c5e20c3eb98ff91e", "e3b0c44298fc1c14"),  # V015__version_titles
        16: ("59bac94db6083946", "b8a6c3732e9f9acf"),  # V016__search_entry_kind
    },
}
