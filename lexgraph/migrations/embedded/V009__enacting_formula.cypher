// The enacting formula of an ordinance: e-Gov's EnactStatement, 「…法（…）第…条の規定に基づき…」, which
// says the Act its bare 法 means. Laws stored before this migration have none until re-ingested.
ALTER TABLE Law ADD IF NOT EXISTS enact_statement STRING;
