import type { Migration, MigrationProvider } from 'kysely';
import { initial } from './0001_initial.js';
import { library } from './0002_library.js';
import { artifactStatus } from './0003_artifact_status.js';
import { accounts } from './0004_accounts.js';
import { modelProviders } from './0005_model_providers.js';
import { accountPolicies } from './0006_account_policies.js';
import { subjectAccess } from './0007_subject_access.js';
import { libraryEmbeddings } from './0008_library_embeddings.js';
import { rooms } from './0009_rooms.js';
import { roomSources } from './0010_room_sources.js';
import { roomIngress } from './0011_room_ingress.js';
import { runtimeApprovals } from './0012_runtime_approvals.js';
import { embodiment } from './0013_embodiment.js';
import { chats } from './0014_chats.js';
import { embodimentWorkflows } from './0015_embodiment_workflows.js';
import { runList } from './0016_run_list.js';
import { dropRunOwnerIndex } from './0017_drop_run_owner_index.js';
import { roomTrustBounds } from './0018_room_trust_bounds.js';
import { roomStorageBounds } from './0019_room_storage_bounds.js';
import { runAgentExecutors } from './0020_run_agent_executors.js';

export type { StoreDialect } from './dialect.js';
import type { StoreDialect } from './dialect.js';

/** Every migration, in order. Names are permanent: never rename or edit one that has shipped. */
const migrations = (dialect: StoreDialect): Readonly<Record<string, Migration>> => ({
  '0001_initial': initial,
  '0002_library': library(dialect),
  '0003_artifact_status': artifactStatus,
  '0004_accounts': accounts,
  '0005_model_providers': modelProviders,
  '0006_account_policies': accountPolicies,
  '0007_subject_access': subjectAccess,
  '0008_library_embeddings': libraryEmbeddings(dialect),
  '0009_rooms': rooms,
  '0010_room_sources': roomSources,
  '0011_room_ingress': roomIngress,
  '0012_runtime_approvals': runtimeApprovals,
  '0013_embodiment': embodiment,
  '0014_chats': chats,
  '0015_embodiment_workflows': embodimentWorkflows,
  '0016_run_list': runList,
  '0017_drop_run_owner_index': dropRunOwnerIndex,
  '0018_room_trust_bounds': roomTrustBounds,
  '0019_room_storage_bounds': roomStorageBounds,
  '0020_run_agent_executors': runAgentExecutors,
});

export const migrationProvider = (dialect: StoreDialect): MigrationProvider => ({
  getMigrations: async () => migrations(dialect),
});

export const MIGRATION_NAMES = Object.keys(migrations('sqlite'));
