import type { SqlExecutor } from '../database/sql-database.js';
import type { Plan } from './make-plan.js';

// Plans as the database keeps them (migration 10, `shard_plans`): one per project, plan key
// and shard count, the first made; the answer's parts as JSON text.

interface PlanRow {
  [column: string]: string | number | null;
  plan_key: string;
  project: string;
  shard_count: number | string;
  files_hash: string;
  basis: string;
  shards: string;
  files: string;
  created_at: string;
}

const PLAN_COLUMNS = 'plan_key, project, shard_count, files_hash, basis, shards, files, created_at';

export async function storedPlan(
  db: SqlExecutor,
  project: string,
  key: string,
  shardCount: number,
): Promise<Plan | undefined> {
  const [row] = await db.query<PlanRow>(
    `SELECT ${PLAN_COLUMNS} FROM shard_plans WHERE project = $1 AND plan_key = $2 AND shard_count = $3`,
    [project, key, shardCount],
  );
  return row && planOf(row);
}

/** Stores the plan unless one is there already for its key (another shard's, committed first); true when stored. */
export async function insertPlan(db: SqlExecutor, plan: Plan): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO shard_plans (project, plan_key, shard_count, files_hash, file_count, basis, shards, files, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (project, plan_key, shard_count) DO NOTHING RETURNING plan_key`,
    [
      plan.project,
      plan.key,
      plan.shardCount,
      plan.filesHash,
      plan.files.length,
      plan.basis,
      JSON.stringify(plan.shards),
      JSON.stringify(plan.files),
      plan.createdAt,
    ],
  );
  return rows.length > 0;
}

/** The shards' planned totals of the plans a run's shards named, by plan key (the run page). */
export async function plannedShards(
  db: SqlExecutor,
  project: string,
  keys: readonly { key: string; shardCount: number }[],
): Promise<Map<string, Pick<Plan, 'basis' | 'shards'>>> {
  const plans = new Map<string, Pick<Plan, 'basis' | 'shards'>>();
  for (const { key, shardCount } of keys) {
    const [row] = await db.query<{ basis: string; shards: string }>(
      'SELECT basis, shards FROM shard_plans WHERE project = $1 AND plan_key = $2 AND shard_count = $3',
      [project, key, shardCount],
    );
    if (row)
      plans.set(`${shardCount}\0${key}`, {
        basis: row.basis as Plan['basis'],
        shards: JSON.parse(row.shards),
      });
  }
  return plans;
}

function planOf(row: PlanRow): Plan {
  return {
    key: row.plan_key,
    project: row.project,
    shardCount: Number(row.shard_count),
    filesHash: row.files_hash,
    basis: row.basis as Plan['basis'],
    shards: JSON.parse(row.shards),
    files: JSON.parse(row.files),
    createdAt: row.created_at,
  };
}
