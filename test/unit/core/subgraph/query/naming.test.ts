import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listQueryName, lowerCamelCase, pluralTypeName, singleQueryName } from '../../../../../src/core/subgraph/query/naming';

test('list and single query names follow graph-node: lower camel case plural', () => {
  const cases: [string, string, string][] = [
    ['ApprovalQuery', 'approvalQuery', 'approvalQueries'],
    ['Token', 'token', 'tokens'],
    ['Address', 'address', 'addresses'],
    ['Status', 'status', 'statuses'],
    ['UniswapDayData', 'uniswapDayData', 'uniswapDayDatas'],
    ['Wolf', 'wolf', 'wolves'],
    ['ERC20Token', 'erc20Token', 'erc20Tokens'],
    // Runs of capitals are lowered whole: graph-node's inflector does the same.
    ['NFTSale', 'nftsale', 'nftsales'],
    // A name that reads plural already gets graph-node's _collection suffix.
    ['Stats', 'stats', 'stats_collection'],
  ];
  for (const [entity, single, list] of cases) {
    assert.equal(singleQueryName(entity), single, entity);
    assert.equal(listQueryName(entity), list, entity);
  }
  assert.equal(lowerCamelCase('TokenID'), 'tokenID');
});

test('plurals by every inflection rule, case-sensitive as graph-node applies them to the name as written', () => {
  // Irregular and Latin stems match in lower case only, so a capitalised name (Person, Matrix,
  // Knife) takes the general rules: graph-node names the list field the same way.
  const cases: [string, string][] = [
    ['Chateaux', 'Chateaux'],
    ['Bureau', 'Bureaus'],
    ['Person', 'Persons'],
    ['SalesPerson', 'SalesPersons'],
    ['People', 'Peoples'],
    ['Child', 'Childs'],
    ['Children', 'Childrens'],
    ['Mouse', 'Mouses'],
    ['DeviceMouse', 'DeviceMouses'],
    ['Louse', 'Louses'],
    ['TokenIndex', 'TokenIndexes'],
    ['Matrix', 'Matrixes'],
    ['Vertex', 'Vertexes'],
    ['Boxes', 'Boxes'],
    ['Box', 'Boxes'],
    ['Match', 'Matches'],
    ['Pass', 'Passes'],
    ['Wish', 'Wishes'],
    ['Buzz', 'Buzzes'],
    ['Money', 'Monies'],
    ['Honey', 'Honies'],
    ['Chimney', 'Chimneys'],
    ['Query', 'Queries'],
    ['Day', 'Days'],
    ['Soliloquy', 'Soliloquies'],
    ['Half', 'Halves'],
    ['Leaf', 'Leaves'],
    ['Roof', 'Roofs'],
    ['Dwarf', 'Dwarves'],
    ['Afterlife', 'Afterlives'],
    ['Knife', 'Knifes'],
    ['Analysis', 'Analyses'],
    ['Criterion', 'Criterions'],
    ['Phenomenon', 'Phenomenons'],
    ['Metadata', 'Metadata'],
    ['Metadatum', 'Metadata'],
    ['Potato', 'Potatoes'],
    ['Tomato', 'Tomatoes'],
    ['Hero', 'Heros'],
    ['Cherub', 'Cherubs'],
    ['Seraphim', 'Seraphims'],
    ['Alga', 'Algas'],
    ['Autofocus', 'Autofoci'],
    ['Bias', 'Bias'],
    ['Atlas', 'Atlases'],
    ['Gas', 'Gas'],
    ['Iris', 'Irises'],
    ['Alias', 'Alias'],
    ['Bonus', 'Bonuses'],
    ['Status', 'Statuses'],
    ['Menu', 'Menus'],
    ['Axis', 'Axis'],
    ['Chinese', 'Chinese'],
    ['Stats', 'Stats'],
    ['Token', 'Tokens'],
    ['Automaton', 'Automatons'],
    ['Octopus', 'Octopuses'],
    ['Datum', 'Datums'],
    ['Bacterium', 'Bacteriums'],
    ['Vertebra', 'Vertebras'],
    ['Ox', 'Oxes'],
    ['Bus', 'Buses'],
    ['Class', 'Classes'],
    ['Dish', 'Dishes'],
    ['Fizz', 'Fizzes'],
    ['Sheep', 'Sheeps'],
    ['Stadium', 'Stadiums'],
    ['Quiz', 'Quizs'],
    ['Tax', 'Taxes'],
    ['Hedron', 'Hedrons'],
    ['Strata', 'Stratas'],
    ['Emus', 'Emuses'],
    ['Protest', 'Protests'],
  ];
  for (const [name, plural] of cases) assert.equal(pluralTypeName(name), plural, name);
});

test('lower camel case: separators start words and go, digits start words, trailing separators go', () => {
  const cases: [string, string][] = [
    ['ApprovalQuery', 'approvalQuery'],
    ['ERC20Token', 'erc20Token'],
    ['NFTSale', 'nftsale'],
    ['TokenID', 'tokenID'],
    ['token_transfer', 'tokenTransfer'],
    ['Token-Transfer', 'tokenTransfer'],
    ['_Private', 'private'],
    ['Pool2Day', 'pool2Day'],
    ['ÄpfelBaum', 'äpfelBaum'],
    ['ABC', 'abc'],
    ['A', 'a'],
    ['Token__', 'token'],
    ['9Lives', '9Lives'],
    ['X_y_Z', 'xYZ'],
    ['uniswapV3Pool', 'uniswapV3Pool'],
  ];
  for (const [name, camel] of cases) assert.equal(lowerCamelCase(name), camel, name);
});

test('plural rules apply only at the end of the name; lower-case stems inside a name take the irregular forms', () => {
  const cases: [string, string][] = [
    // Each rule's ending in the middle of a name does not count: the name takes the general rules.
    ['BeauxArt', 'BeauxArts'],
    ['Salespersonnel', 'Salespersonnels'],
    ['Grandchildhood', 'Grandchildhoods'],
    ['DormouseNest', 'DormouseNests'],
    ['ReindexedEvent', 'ReindexedEvents'],
    ['BoxesCount', 'BoxesCounts'],
    ['MoneyBag', 'MoneyBags'],
    ['LeafNode', 'LeafNodes'],
    ['MidwifeFee', 'MidwifeFees'],
    ['AnalysisRun', 'AnalysisRuns'],
    ['SubcriterionSet', 'SubcriterionSets'],
    ['MetadataItem', 'MetadataItems'],
    ['GoldcherubWing', 'GoldcherubWings'],
    ['MicroalgaBloom', 'MicroalgaBlooms'],
    ['AutofocusMode', 'AutofocusModes'],
    ['BiasCount', 'BiasCounts'],
    ['MenuItem', 'MenuItems'],
    ['IrisScan', 'IrisScans'],
    ['TaxisFleet', 'TaxisFleets'],
    ['ChineseName', 'ChineseNames'],
    // At the end, in lower case, the irregular and Latin forms.
    ['Salesperson', 'Salespeople'],
    ['Grandchild', 'Grandchildren'],
    ['Grandchildren', 'Grandchildren'],
    ['Dormouse', 'Dormice'],
    ['Subappendix', 'Subappendices'],
    ['Subcriterion', 'Subcriteria'],
    ['Goldcherub', 'Goldcherubim'],
    ['Goldcherubim', 'Goldcherubim'],
    ['Microalga', 'Microalgae'],
    ['Taxis', 'Taxes'],
    // -ias stays unless it is -lias (alias takes -es); -iam and -uam stay, other -am do not; -enus stays.
    ['Subalias', 'Subaliases'],
    ['Siam', 'Siam'],
    ['Exam', 'Exams'],
    ['Venus', 'Venus'],
  ];
  for (const [name, plural] of cases) assert.equal(pluralTypeName(name), plural, name);
});

test('lower camel case: a capital after one that started a word is lowered; trailing digits stay', () => {
  assert.equal(lowerCamelCase('9AB'), '9Ab');
  assert.equal(lowerCamelCase('ERC721'), 'erc721');
});
