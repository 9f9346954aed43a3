/**
 * Cohorts as PostHog has them: a cohort may be nameless, lists come newest first, and a static cohort's
 * members are distinct ids (this service keeps no persons), one row each. Flag evaluation asks whether a
 * request's distinct id is in the static cohorts its flags reach, one probe of the primary key per cohort
 * (or reads short lists into memory, which migration 0011 puts this table on the change feed for). A
 * cohort's `count` is kept in the transaction that changes its members.
 */
export default `
ALTER TABLE cohorts ALTER COLUMN name DROP NOT NULL;
CREATE INDEX cohorts_project_created_idx ON cohorts (project_id, created_at DESC, id DESC);

CREATE TABLE cohort_members (
  cohort_id integer NOT NULL REFERENCES cohorts (id) ON DELETE CASCADE,
  distinct_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cohort_id, distinct_id)
);
`
