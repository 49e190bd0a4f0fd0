import { parseNodeId } from '../../codec/index.js';
import { ARGUMENT_ERROR, type Params, RpcFault, type RpcRouter } from '../rpc.js';
import { addTx, bareAddress, claimableReward, type Deposit, type DevnetState, type Owner, pBlockJson, sameOwner } from '../state/index.js';
import { needUser } from './keystore.admin.js';
import { needAddress } from './platform.js';
import { pageUtxos } from './xvm.js';
import { changeOutputs, owners as fromOwners, pay } from './xvm.spend.js';

/**
 * Camino's own P-Chain methods (caminogo vms/platformvm/camino_service.go), which the spec does not
 * list: a `spec`-dialect node answers `rpc: can't find method` for each (rpc.ts CAMINO_ONLY_METHODS).
 */

const s = (n: bigint | number): string => String(n);

/** platformapi.Owner: locktime and threshold quoted, P- addresses. */
export function ownerJson(o: Owner) {
  return { locktime: s(o.locktime), threshold: s(o.threshold), addresses: o.addresses };
}

/** secpOwnerFromAPI: every address must parse as a P- address of this network. */
function needOwner(state: DevnetState, raw: unknown): Owner {
  const o = (raw ?? {}) as Record<string, unknown>;
  const addresses = Array.isArray(o.addresses) ? o.addresses.map((a) => needAddress(state, a, ['P'])) : [];
  const num = (v: unknown) => (v === undefined ? 0n : typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v)) ? BigInt(v) : undefined);
  const locktime = num(o.locktime);
  const threshold = num(o.threshold);
  if (locktime === undefined || threshold === undefined) throw new RpcFault(ARGUMENT_ERROR);
  return { locktime, threshold: Number(threshold), addresses };
}

export function registerCamino(router: RpcRouter, state: DevnetState): void {
  const path = '/ext/P';
  const offerOf = (d: Deposit) => state.depositOffers.find((o) => o.id === d.offerID);
  router
    .on(path, 'platform.getDeposits', (p) => {
      const ids = Array.isArray(p.depositTxIDs) ? p.depositTxIDs.map(String) : [];
      const now = state.now();
      const deposits = [];
      const availableRewards = [];
      for (const id of ids) {
        const d = state.deposits.get(id);
        // The source's own spelling.
        if (!d) throw new RpcFault("could't get deposit from state: not found");
        const offer = offerOf(d);
        if (!offer) throw new RpcFault('not found');
        deposits.push({
          depositTxID: d.txID,
          depositOfferID: d.offerID,
          unlockedAmount: s(d.unlockedAmount),
          claimedRewardAmount: s(d.claimedRewardAmount),
          start: s(d.start),
          duration: d.duration,
          amount: s(d.amount),
          rewardOwner: ownerJson(d.rewardOwner),
        });
        availableRewards.push(s(claimableReward(d, offer, now)));
      }
      return { deposits, availableRewards, timestamp: s(now) };
    })
    .on(path, 'platform.getClaimables', (p) => {
      const owners = Array.isArray(p.owners) ? p.owners : [];
      const claimables = [];
      for (const raw of owners) {
        const owner = needOwner(state, raw);
        const found = state.claimables.find((c) => sameOwner(c.owner, owner));
        // An owner with nothing claimable is left out, no error.
        if (!found) continue;
        claimables.push({ rewardOwner: raw, validatorRewards: s(found.validatorRewards), expiredDepositRewards: s(found.expiredDepositRewards) });
      }
      return { claimables };
    })
    .on(path, 'platform.getMultisigAlias', (p) => {
      const address = needAddress(state, p.address, ['P']);
      const alias = state.multisigAliases.get(bareAddress(address));
      if (!alias) throw new RpcFault('not found');
      return { memo: alias.memo, ...ownerJson(alias.owner) };
    })
    .on(path, 'platform.getRegisteredShortIDLink', (p) => {
      const text = typeof p.address === 'string' ? p.address : '';
      let isNode = true;
      try {
        parseNodeId(text);
      } catch {
        isNode = false;
      }
      if (isNode) {
        const linked = state.nodeLinks.get(text);
        if (!linked) throw new RpcFault('not found');
        return { address: linked };
      }
      const address = needAddress(state, p.address, ['P']);
      const node = [...state.nodeLinks].find(([, a]) => bareAddress(a) === bareAddress(address))?.[0];
      if (!node) throw new RpcFault('not found');
      return { address: node };
    })
    .on(path, 'platform.getLastAcceptedBlock', () => ({ block: pBlockJson(state, state.pBlocks[state.pBlocks.length - 1]!), encoding: 'json' }))
    .on(path, 'platform.getBlockAtHeight', (p) => {
      // A plain Go uint32: a quoted number, a fraction or a negative does not unmarshal.
      const height = (p as Params).height;
      if (height !== undefined && (typeof height !== 'number' || !Number.isInteger(height) || height < 0 || height > 0xffffffff)) throw new RpcFault(ARGUMENT_ERROR);
      const block = state.pBlocks.find((b) => b.height === (height ?? 0));
      // The node walks back from the tip past genesis, to the empty parent ID.
      if (!block) throw new RpcFault("couldn't get block with id 11111111111111111111111111111111LpoYY: not found");
      return { block: pBlockJson(state, block), encoding: 'json' };
    })
    .on(path, 'platform.getUpgradePhases', () => ({ athensPhase: state.now() >= state.athensPhaseTime ? '1' : '0' }))
    .on(path, 'platform.getUTXOs', (p) => pageUtxos(state, 'P', p, ['P'], false))
    // caminogo camino_service.go Claim: the keystore signs a ClaimTx; claimType 0 validator rewards,
    // 1 expired deposit rewards (by owner), 3 a running deposit's reward (by deposit tx ID).
    .on(path, 'platform.claim', (p) => {
      const user = needUser(state, p);
      const mine = new Set(user.keys.map((k) => k.bech32));
      const list = Array.isArray(p.claimables) ? p.claimables : [];
      if (list.length === 0) throw new RpcFault('no claimables');
      const claimTo = needOwner(state, p.claimTo);
      const now = state.now();
      const changes: Array<() => void> = [];
      let total = 0n;
      for (const raw of list) {
        const c = (raw ?? {}) as Record<string, unknown>;
        const type = c.claimType;
        const amountText = c.amount;
        if (typeof type !== 'number' || !(typeof amountText === 'string' || typeof amountText === 'number') || !/^\d+$/.test(String(amountText))) throw new RpcFault(ARGUMENT_ERROR);
        const amount = BigInt(amountText);
        if (type === 3) {
          const d = state.deposits.get(String(c.depositTxID ?? ''));
          if (!d) throw new RpcFault("couldn't create tx: not found");
          if (!d.rewardOwner.addresses.every((a) => mine.has(bareAddress(a)))) throw new RpcFault("couldn't create tx: not enough signatures");
          const can = claimableReward(d, offerOf(d)!, now);
          if (amount > can) throw new RpcFault(`couldn't create tx: claimed amount ${amount} is more than the ${can} claimable`);
          changes.push(() => {
            d.claimedRewardAmount += amount;
          });
        } else if (type === 0 || type === 1) {
          const owner = needOwner(state, c.claimableOwner);
          const found = state.claimables.find((x) => sameOwner(x.owner, owner));
          if (!found) throw new RpcFault("couldn't create tx: not found");
          if (!owner.addresses.every((a) => mine.has(bareAddress(a)))) throw new RpcFault("couldn't create tx: not enough signatures");
          const key = type === 0 ? 'validatorRewards' : 'expiredDepositRewards';
          if (amount > found[key]) throw new RpcFault(`couldn't create tx: claimed amount ${amount} is more than the ${found[key]} claimable`);
          changes.push(() => {
            found[key] -= amount;
          });
        } else throw new RpcFault('wrong claim type');
        total += amount;
      }
      const from = fromOwners(state, user, 'P', p.from);
      const { inputs, change } = pay(state, 'P', from, new Map([[state.nativeAssetID, state.fees.txFee]]));
      for (const apply of changes) apply();
      const to = claimTo.addresses[0]!;
      const tx = addTx(state, {
        chain: 'P',
        type: 'claim',
        inputs,
        outputs: [{ assetID: state.nativeAssetID, amount: total, addresses: [to], chain: 'P' }, ...changeOutputs(change, to, 'P')],
        fee: state.fees.txFee,
      });
      return { txID: tx.id };
    });
}
