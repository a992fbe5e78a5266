import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Rules = ReturnType<Storage['getTargetValidationMetadatas']>;
type RulesByProperty = ReturnType<Storage['groupByPropertyName']>;

/** Storages already wrapped: every app made in one process (tests make many) shares class-validator's. */
const CACHED = new WeakSet<Storage>();

/**
 * class-validator looks a class's rules up anew on every validation: `getTargetValidationMetadatas`
 * filters them and scans every registered class for a parent, and `groupByPropertyName` groups them
 * again. On a create that was about a quarter of the validation's CPU and of its garbage
 * (docs/performance.md). The rules are fixed once the DTO classes have loaded, so both answers are
 * kept per class, and forgotten whenever a rule is added. Calls that name groups (payhook makes none)
 * go to class-validator as before. Neither answer is changed by its callers: the executor only reads them.
 */
export function cacheValidationRules(storage: Storage = getMetadataStorage()): void {
  if (CACHED.has(storage)) return;
  CACHED.add(storage);
  let rulesByClass = new WeakMap<object, Map<string, Rules>>();
  let groupedByRules = new WeakMap<Rules, RulesByProperty>();
  const forget = () => {
    rulesByClass = new WeakMap();
    groupedByRules = new WeakMap();
  };

  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups?.length) return lookUp(target, schema, always, strictGroups, groups);
    let byOptions = rulesByClass.get(target);
    if (!byOptions) rulesByClass.set(target, (byOptions = new Map<string, Rules>()));
    const options = `${schema ?? ''}\u0000${String(always)}\u0000${String(strictGroups)}`;
    let rules = byOptions.get(options);
    if (!rules) byOptions.set(options, (rules = lookUp(target, schema, always, strictGroups, groups)));
    return rules;
  };

  const group = storage.groupByPropertyName.bind(storage);
  storage.groupByPropertyName = (rules) => {
    let grouped = groupedByRules.get(rules);
    if (!grouped) groupedByRules.set(rules, (grouped = group(rules)));
    return grouped;
  };

  const forgetting =
    <Entry>(add: (entry: Entry) => void) =>
    (entry: Entry): void => {
      forget();
      add(entry);
    };
  storage.addValidationMetadata = forgetting(storage.addValidationMetadata.bind(storage));
  storage.addConstraintMetadata = forgetting(storage.addConstraintMetadata.bind(storage));
  storage.addValidationSchema = forgetting(storage.addValidationSchema.bind(storage));
}
