import { parseUnits } from '../codec/index.js';

/**
 * Texts of the MCP prompts (the SDK wiring is in extras.ts). Each names the tools that
 * answer the question in as few calls as possible, falling back to the single-operation
 * tools when the assistant toolset is not exposed, and says so when neither is.
 */

export interface PromptText {
  description: string;
  text: string;
}

/** Names of the tools this server exposes, to write prompts that only mention callable tools. */
export type Exposed = ReadonlySet<string>;

function pick(exposed: Exposed, preferred: string, fallback: string[]): string[] {
  if (exposed.has(preferred)) return [preferred];
  return fallback.filter((name) => exposed.has(name));
}

function toolLine(names: string[], what: string): string {
  return names.length > 0
    ? `Use ${names.join(', ')} to ${what}.`
    : `No tool that can ${what} is exposed by this server; say so and suggest enabling the toolsets (CHAIN_MCP_TOOLSETS).`;
}

export function portfolioReport(address: string, exposed: Exposed): PromptText {
  const isHex = address.startsWith('0x');
  const tools = pick(exposed, 'account_overview', isHex ? ['eth_getBalance'] : ['xvm_getAllBalances', 'platform_getBalance', 'xvm_getUTXOs', 'cx_getUTXOs']);
  return {
    description: `Portfolio of ${address}`,
    text: [
      `Report what the address ${address} holds on this network.`,
      toolLine(tools, 'read its balances in one step'),
      'Give the native asset per chain (X, P and C) in display units; on P split unlocked, bonded (staked), deposited and bonded-and-deposited amounts;',
      'list other X-chain assets by symbol; mention funds exported to a chain and still waiting for import there.',
      'End with the total of the native asset. Do not call any spending tool.',
    ].join('\n'),
  };
}

export function validatorReport(nodeID: string, exposed: Exposed): PromptText {
  const tools = pick(exposed, 'validator_lookup', ['platform_getCurrentValidators', 'platform_getPendingValidators']);
  return {
    description: `Validator report for ${nodeID}`,
    text: [
      `Report on the validator ${nodeID}.`,
      toolLine(tools, 'look it up (current set first, then pending)'),
      'Say whether it is validating now or pending, its period (start, end, time left), its stake, uptime and connection,',
      'its delegation fee, the number of delegators and their total stake, and the reward owner. If it is in neither set, say so plainly.',
    ].join('\n'),
  };
}

export function stakingOptions(exposed: Exposed): PromptText {
  const tools = pick(exposed, 'network_overview', ['platform_getConfiguration', 'platform_getMinStake', 'platform_getAllDepositOffers']);
  return {
    description: 'Staking and deposit options on this network',
    text: [
      'Explain the staking and deposit options on this network.',
      toolLine(tools, 'read the minimum stakes, stake durations and the deposit offers active now'),
      'Give the minimum validator and delegator stake in display units, the allowed staking periods in days, the minimum delegation fee,',
      'and a table of active deposit offers: yearly interest (interestRateNominator / 1,000,000, so 80000 is 8 %), minimum amount, duration bounds, whether it is locked.',
      'Do not call any spending tool.',
    ].join('\n'),
  };
}

/** `amount` is in display units of the native asset ("5", "0.25"); the transfer tool takes the smallest unit. */
export function guardedTransfer(to: string, amount: string, exposed: Exposed, approval: 'human' | 'confirm-id' = 'human'): PromptText {
  let units: string;
  try {
    units = parseUnits(amount.trim(), 9).toString();
  } catch {
    units = '';
  }
  const lines = [`The human wants to send ${amount} of the native asset to ${to}.`];
  if (!units || units === '0' || units.startsWith('-')) {
    lines.push(`"${amount}" is not a positive amount with at most 9 decimals; ask the human for the amount again and send nothing.`);
  } else if (!exposed.has('transfer')) {
    lines.push(
      'The transfer tool is not exposed by this server (spending is off unless the operator sets CHAIN_MCP_ALLOW_SPEND=true and the keystore credentials).',
      'Tell the human that, and send nothing.',
    );
  } else {
    const first = `1. Call transfer with to "${to}" and amount "${units}" (nCAM, the smallest unit: 1 CAM = 1,000,000,000 nCAM), without confirm. This sends nothing and returns a preview and a confirmationId.`;
    // Under human approval a chat "yes" approves nothing: only the human's own channel does (src/approval).
    const steps =
      approval === 'human'
        ? [
            '2. Show the preview to the human word for word (steps, amounts, fees). A "yes" in this chat is not an approval: the human approves or declines it themselves, in their client, on the approval card or on the approval page the preview links to. You cannot approve it.',
            '3. Once the human says they approved it there, call transfer again with exactly the same arguments plus confirm set to the confirmationId. If it answers "not approved yet", wait for the human; if they declined or hesitate, stop.',
          ]
        : [
            '2. Show the preview to the human word for word (steps, amounts, fees) and ask for an explicit yes.',
            '3. Only after a clear yes, call transfer again with exactly the same arguments plus confirm set to the confirmationId (the client may ask the human once more). If the human hesitates or says no, stop.',
          ];
    lines.push(
      first,
      ...steps,
      '4. Report each transaction ID. Never repeat a transfer on your own: if the outcome is unknown or a step failed, check with tx_status or account_overview and tell the human.',
    );
  }
  return { description: `Guarded transfer of ${amount} to ${to}`, text: lines.join('\n') };
}
