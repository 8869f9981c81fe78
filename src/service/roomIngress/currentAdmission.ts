import type { ResolvedAdapterProfile } from '../../domain/environmentAdapterRegistry.js';
import { HelixError } from '../../domain/errors.js';
import type { AdapterAdmissionRecord, RoomSourceRecord } from '../../domain/roomSources.js';
import type { UnitOfWork } from '../../store/port.js';
import type { RoomDeps } from '../rooms/deps.js';

export interface CurrentAdmission {
  readonly admission: AdapterAdmissionRecord;
  readonly resolved: ResolvedAdapterProfile;
}

/**
 * ING-02, §22: heartbeats, world events and probe traffic are accepted only under the source's
 * current admission, for the producer epoch it admitted, while the code-owned profile still has
 * the contract hash it was admitted under. No admission (never, or invalidated by rotation) and
 * any other epoch (an older process, or a new one that has not sent its manifest) are the same
 * refusal: the producer's fix is a manifest.
 */
export const requireAdmission = async (
  deps: RoomDeps,
  uow: UnitOfWork,
  source: RoomSourceRecord,
  producerEpochHash: string,
): Promise<CurrentAdmission> => {
  const admission = await uow.roomSources.getCurrentAdmission(source.sourceId);
  if (admission === undefined || admission.producerEpochHash !== producerEpochHash)
    throw new HelixError('environment_adapter_admission_required');
  const resolved = deps.adapters.byId(admission.profileId);
  if (resolved === undefined || resolved.contractHash !== admission.profileHash)
    throw new HelixError('environment_adapter_contract_changed');
  return { admission, resolved };
};
