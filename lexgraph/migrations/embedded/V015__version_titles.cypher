// The title of each version of a law: e-Gov's revision list gives each revision's `law_title`, and a
// law's file its <LawTitle>; a law renamed (労働者派遣事業の…就業条件の整備等に関する法律 → …保護等に関する法律, 2012)
// keeps its former title on the versions that bore it, so that a citation by that title resolves to the law with
// the day of renaming. Versions stored before this migration have none until their law is synced or ingested again.
ALTER TABLE LawVersion ADD IF NOT EXISTS title STRING;
