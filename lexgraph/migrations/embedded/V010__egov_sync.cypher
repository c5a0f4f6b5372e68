// e-Gov sync: periods from e-Gov's revision list. LawVersion.scheduled: promulgated but not in force on
// the last sync day (UnEnforced; enforced_from NULL when e-Gov leaves the day open). Law.synced_on: the day of
// the last successful sync ("known up to"); Law.repealed_on: the day a repealed law ceased to be in force.
ALTER TABLE LawVersion ADD IF NOT EXISTS scheduled BOOLEAN;
ALTER TABLE Law ADD IF NOT EXISTS synced_on DATE;
ALTER TABLE Law ADD IF NOT EXISTS repealed_on DATE;
