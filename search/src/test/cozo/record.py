#!/usr/bin/env python3
"""Records CozoDB 0.7.6's own answers for the search module's tests (cozo-lib-wasm, through
datalog-frontend/src/test/cozo/cozo-run.mjs; run `npm ci` there first):
  fts-oracle.json  : for each analyzer (tokenizer and filters) an FTS index over DOCS, its
                     index relation's rows (word, key, offsets, positions, token count), and
                     for each query CozoDB's rows (key, score) with score_kind tf_idf and tf;
  cangjie-oracle.json : the same for the Cangjie (jieba) tokenizer's kinds over SENTENCES:
                     hand-written Chinese sentences and seeded random runs of jieba's
                     dictionary words, rare characters, ASCII, digits and punctuation;
  lsh-params.json  : the bands and rows CozoDB chooses for threshold, n_perm and weights;
  stemmers.json    : for each Stemmer language, CozoDB's stem of each word of that language's
                     stopwords-iso list (a Raw-tokenized index's words).
Usage: search/src/test/cozo/record.py [fts cangjie lsh stemmers]
(writes the files named, all by default, into search/src/test/resources/dev/mnestic/search/).
"""
import gzip, json, os, random, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER_DIR = os.path.join(HERE, '..', '..', '..', '..', 'datalog-frontend', 'src', 'test', 'cozo')
OUT = os.path.join(HERE, '..', 'resources', 'dev', 'mnestic', 'search')

DOCS = [
    ['a', 'Hello world, hello again!'],
    ['b', 'The quick brown fox jumps over the lazy dog.'],
    ['c', 'A lazy afternoon: the dog sleeps, the fox runs.'],
    ['d', 'Worlds apart; the world keeps turning around the sun.'],
    ['e', 'Café crème brûlée at the Hôtel de Ville, naïve façade.'],
    ['f', 'Running runners ran; the runner runs running races.'],
    ['g', 'fox fox fox dog dog cat'],
    ['h', 'Numbers 42 and 3.14, then x2 and ²³ digits.'],
    ['i', 'ΣΊΣΥΦΟΣ and İstanbul, Straße and ÆØÅ.'],
    ['j', 'hello hello hello world world'],
    ['k', 'the the the'],
    ['l', None],
    ['m', ''],
    ['n', 'Quick quicker quickest; quickly quicken.'],
    ['o', 'brown fox, brown dog, brown cow, brown owl'],
]

ANALYZERS = [
    {'name': 'simple', 'tokenizer': ['Simple', []], 'filters': []},
    {'name': 'simple_lower', 'tokenizer': ['Simple', []], 'filters': [['Lowercase', []]]},
    {'name': 'english', 'tokenizer': ['Simple', []],
     'filters': [['Lowercase', []], ['Stemmer', ['english']], ['Stopwords', ['en']]]},
    {'name': 'stem_only', 'tokenizer': ['Simple', []],
     'filters': [['Lowercase', []], ['Stemmer', ['English']]]},
    {'name': 'folded', 'tokenizer': ['Whitespace', []],
     'filters': [['Lowercase', []], ['AsciiFolding', []], ['AlphaNumOnly', []]]},
    {'name': 'own_stops', 'tokenizer': ['Whitespace', []],
     'filters': [['Lowercase', []], ['Stopwords', [['the', 'a', 'and']]], ['RemoveLong', [6]]]},
    {'name': 'raw', 'tokenizer': ['Raw', []], 'filters': [['Lowercase', []]]},
    {'name': 'ngram', 'tokenizer': ['NGram', [2, 3, False]], 'filters': [['Lowercase', []]]},
    {'name': 'ngram_prefix', 'tokenizer': ['NGram', [1, 4, True]], 'filters': []},
    {'name': 'unicode', 'tokenizer': ['Cangjie', ['unicode']], 'filters': [['Lowercase', []]]},
    {'name': 'compound', 'tokenizer': ['Simple', []],
     'filters': [['Lowercase', []], ['SplitCompoundWords', [['run', 'ning', 'ner', 'ners', 's', 'quick',
                                                            'er', 'est', 'ly', 'en', 'world',
                                                            'hello', 'he', 'llo', 'ag', 'ain']]]]},
]

QUERIES = [
    'hello', 'world', 'fox', 'dog', 'the', 'Hello', 'fox AND dog', 'fox OR world',
    'fox NOT lazy', 'fox, cat', 'fox; world', 'lazy dog', '"lazy dog"', "'quick brown'",
    'fox^2.5', 'fox^0.5 OR dog^1.5', 'fox^0.0', 'fox AND dog OR world', 'dog OR fox AND cat',
    'fox NOT dog OR cat', 'fox OR dog NOT lazy AND brown', '(fox OR world) AND dog',
    'NEAR(fox dog)', 'NEAR/1(brown fox)', 'NEAR/2(fox dog)', 'NEAR/0(fox fox)',
    'NEAR(hello world)', 'NEAR/3(lazy dog fox)', 'NEAR(fox^2.0 dog)', 'NEAR(fox*)',
    'wor*', 'run*', 'quick*', 'qu*^2.0', 'br* AND fox', 'wor* NOT hello', 'he*', 'caf*',
    'runner', 'running', 'runs', 'quickly', 'cafe', 'creme', 'hotel', 'strasse', 'σίσυφος',
    'ΣΊΣΥΦΟΣ', 'istanbul', '42', '3', '²³', 'x2', 'ae', 'a', 'c', 'o', 'ro', 'fox dog',
    '"fox" "dog"', 'hello # a comment\n', 'fox /* c */ dog', 'NEAR(brown dog) OR cat',
    'fox NOT (dog AND cat)', 'the quick', 'quick^1.5 brown', '_"lazy"_', 'ORANGE',
    'fox AND', 'fox-dog', 'hello world again', 'hello #world\n OR fox', 'fox ^1.5', 'fox  *',
    'NEAR(hello #world\n)', '( fox #dog\n)', 'NEAR/1(the fox)', 'NEAR(fox dog cat)', 'fox^0.',
    'NOTE', 'NEARBY', 'fox OR', '"unclosed', 'fox dog NOT cat', 'NEAR/5(brown* d*)',
]


def cozo_list(args):
    return '[' + ', '.join(cozo_arg(a) for a in args) + ']'


def cozo_arg(a):
    if isinstance(a, bool):
        return 'true' if a else 'false'
    if isinstance(a, list):
        return cozo_list(a)
    if isinstance(a, str):
        return json.dumps(a)
    return str(a)


def cozo_config(c):
    name, args = c
    return name if not args else name + '(' + ', '.join(cozo_arg(a) for a in args) + ')'


def run(cases):
    out = subprocess.run(['node', 'cozo-run.mjs', '--batch', '--shared-db'], cwd=RUNNER_DIR,
                         input=json.dumps(cases).encode(), capture_output=True, check=True).stdout
    results = [json.loads(l.rstrip(',')) for l in out.decode().split('\n') if l.startswith('{')]
    assert len(results) == len(cases), (len(results), len(cases))
    return results


CANGJIE_ANALYZERS = [
    {'name': 'cj_default', 'tokenizer': ['Cangjie', []], 'filters': []},
    {'name': 'cj_hmm', 'tokenizer': ['Cangjie', ['default', True]], 'filters': []},
    {'name': 'cj_search', 'tokenizer': ['Cangjie', ['search']], 'filters': []},
    {'name': 'cj_search_hmm', 'tokenizer': ['Cangjie', ['search', True]], 'filters': []},
    {'name': 'cj_all', 'tokenizer': ['Cangjie', ['all']], 'filters': [['Lowercase', []]]},
]

HAND_SENTENCES = [
    '我来到北京清华大学', '他来到了网易杭研大厦', '小明硕士毕业于中国科学院计算所，后在日本京都大学深造',
    '南京市长江大桥', '结婚的和尚未结婚的', '工信处女干事每月经过下属科室都要亲口交代24口交换机等技术性器件的安装工作',
    '我们中出了一个叛徒', '永和服装饰品有限公司', '今天天气不错，我们去公园散步吧！', '这是一个伸手不见五指的黑夜。',
    '我叫孙悟空，我爱北京，我爱Python和C++。', '我不喜欢日本和服。', '雷猴回归人间。', '研究生命的起源',
    '李小福是创新办主任也是云计算方面的专家', '2024年12月3日，气温-5.5度，湿度80%。', '物联网（IoT）与人工智能 AI 的结合',
    '请把 A4 纸放在 3.14 号桌上', '这个 iPhone 15 Pro Max 的价格是 9999 元', '数据库查询引擎支持全文检索和向量搜索',
    '知识图谱中的实体和关系可以用 Datalog 规则表达', '他说：“明天见。”她回答：“好的！”', '乒乓球拍卖完了',
    '吉林欧亚置业主要经营范围为房地产开发及百货零售等业务', '目前在建吉林欧亚城市商业综合体项目',
    '江州市长江大桥参加了长江大桥的通车仪式', '中华人民共和国成立于一九四九年', '长春市长春节讲话',
    '一次性交多少钱', '他的确实现了他的目标', '\t前面有制表符\r\n后面有回车换行', '𠀀𠀁是扩展B区的字',
    '全角ＡＢＣ１２３和半角abc123', '邮箱是 someone@example.com，网址 https://example.org/a_b-c', '',
]


def cangjie_sentences():
    """HAND_SENTENCES, then 265 seeded random sentences of jieba's dictionary words."""
    dict_gz = os.path.join(HERE, '..', '..', 'main', 'resources', 'dev', 'mnestic', 'search',
                           'text', 'jieba-dict.txt.gz')
    with gzip.open(dict_gz, 'rt', encoding='utf-8') as f:
        words = [l.split(' ')[0] for l in f.read().split('\n') if l]
    rng = random.Random(14)
    extras = ['，', '。', ' ', '、', '！', '？', 'abc', 'X', '42', '3.5', '%', '-', '_', '\n',
              '龘', '鑫', '㐀', '亍', '丂', '乛', 'Hello', 'C#', '（', '）']
    sentences = list(HAND_SENTENCES)
    while len(sentences) < 300:
        parts = []
        for _ in range(rng.randint(2, 9)):
            r = rng.random()
            if r < 0.7:
                parts.append(rng.choice(words))
            elif r < 0.85:
                # a run of characters, so that unknown words go through the HMM
                parts.append(''.join(rng.choice(rng.choice(words)) for _ in range(rng.randint(2, 4))))
            else:
                parts.append(rng.choice(extras))
        sentences.append(''.join(parts))
    return [['s%03d' % i, s] for i, s in enumerate(sentences)]


CANGJIE_QUERIES = ['北京', '大学', '清华大学', '长江大桥', '市长', '"长江 大桥"', '北京 OR 日本',
                   '我们 AND 公园', 'NEAR(研究 起源)', '数据库 NOT 向量', '中*', 'python', 'C++',
                   '2024', '和服', '结婚', '天气^2.0 OR 散步']


def fts(docs, analyzers, queries):
    cases = [{'name': 'create', 'script': ':create docs {k: String => v: String?}'},
             {'name': 'put', 'script': '?[k, v] <- $docs :put docs {k => v}',
              'params': json.dumps({'docs': docs})}]
    for a in analyzers:
        # CozoDB rejects `filters: []` ("Filters must be a list of filters"): leave it out
        filters = ''
        if a['filters']:
            filters = ', filters: [' + ', '.join(cozo_config(f) for f in a['filters']) + ']'
        cases.append({'name': 'idx ' + a['name'],
                      'script': '::fts create docs:%s {extractor: v, tokenizer: %s%s}'
                                % (a['name'], cozo_config(a['tokenizer']), filters)})
    for a in analyzers:
        cases.append({'name': 'rel ' + a['name'],
                      'script': '?[word, src_k, offset_from, offset_to, position, total_length] := '
                                '*docs:%s{word, src_k, offset_from, offset_to, position, '
                                'total_length}' % a['name']})
    keys = []
    for a in analyzers:
        for q in queries:
            for kind in ['tf_idf', 'tf']:
                keys.append((a['name'], q, kind))
                cases.append({'name': '%s %s %s' % (a['name'], kind, q),
                              'script': '?[k, s] := ~docs:%s{k | query: $q, k: 100, '
                                        'bind_score: s, score_kind: "%s"}' % (a['name'], kind),
                              'params': json.dumps({'q': q})})
    results = run(cases)
    for r in results[:2 + 2 * len(analyzers)]:
        assert r.get('ok'), r
    relations = {a['name']: r['rows'] for a, r in
                 zip(analyzers, results[2 + len(analyzers):2 + 2 * len(analyzers)])}
    queries = []
    for (name, q, kind), r in zip(keys, results[2 + 2 * len(analyzers):]):
        entry = {'analyzer': name, 'query': q, 'score_kind': kind}
        if r.get('ok'):
            entry['rows'] = r['rows']
        else:
            entry['error'] = r.get('message') or r.get('code')
        queries.append(entry)
    return {'docs': docs, 'analyzers': analyzers, 'index_relations': relations,
            'queries': queries}


def lsh():
    combos = []
    for n_perm in [20, 64, 128, 200]:
        for threshold in [0.1, 0.3, 0.5, 0.7, 0.9]:
            for fpw, fnw in [(0.5, 0.5), (0.2, 0.8), (0.9, 0.1)]:
                combos.append((n_perm, threshold, fpw, fnw))
    cases = [{'name': 'create', 'script': ':create t {k: String => v: String?}'}]
    for i, (n_perm, threshold, fpw, fnw) in enumerate(combos):
        cases.append({'name': 'lsh %d' % i,
                      'script': '::lsh create t:l%d {extractor: v, tokenizer: Simple, n_perm: %d, '
                                'target_threshold: %s, false_positive_weight: %s, '
                                'false_negative_weight: %s}' % (i, n_perm, threshold, fpw, fnw)})
    cases.append({'name': 'indices', 'script': '::indices t'})
    results = run(cases)
    by_name = {row[0]: row[3] for row in results[-1]['rows']}
    out = []
    for i, (n_perm, threshold, fpw, fnw) in enumerate(combos):
        cfg = by_name['l%d' % i]
        out.append({'n_perm': n_perm, 'threshold': threshold, 'false_positive_weight': fpw,
                    'false_negative_weight': fnw, 'n_bands': cfg['n_bands'],
                    'n_rows_in_band': cfg['n_rows_in_band']})
    return out


STEMMER_LANGUAGES = {
    'arabic': 'ar', 'danish': 'da', 'dutch': 'nl', 'english': 'en', 'finnish': 'fi',
    'french': 'fr', 'german': 'de', 'greek': 'el', 'hungarian': 'hu', 'italian': 'it',
    'norwegian': 'no', 'portuguese': 'pt', 'romanian': 'ro', 'russian': 'ru', 'spanish': 'es',
    'swedish': 'sv', 'turkish': 'tr',
}
EXTRA_ENGLISH = ['running', 'runner', 'generously', 'happiness', 'relational', 'conditional',
                 'rationalization', 'hopefully', 'skies', 'dying', 'agreed', 'feed', 'cats',
                 'ponies', 'caresses', 'troubled', 'sized', 'hoping', 'fluently', 'argument']


def stemmers():
    words_dir = os.path.join(HERE, '..', '..', 'main', 'resources', 'dev', 'mnestic', 'search',
                             'text')
    cases = []
    langs = []
    for lang, code in sorted(STEMMER_LANGUAGES.items()):
        with open(os.path.join(words_dir, 'stopwords-%s.txt' % code)) as f:
            words = sorted(set(w for w in f.read().split('\n') if w))
        if lang == 'english':
            words += EXTRA_ENGLISH
        langs.append((lang, words))
        rel = 's_' + lang
        cases.append({'name': 'create ' + lang, 'script': ':create %s {k: Int => v: String}' % rel})
        cases.append({'name': 'put ' + lang, 'script': '?[k, v] <- $rows :put %s {k => v}' % rel,
                      'params': json.dumps({'rows': [[i, w] for i, w in enumerate(words)]})})
        cases.append({'name': 'idx ' + lang,
                      'script': "::fts create %s:i {extractor: v, tokenizer: Raw, "
                                "filters: [Stemmer('%s')]}" % (rel, lang)})
        cases.append({'name': 'rel ' + lang,
                      'script': '?[src_k, word] := *%s:i{word, src_k}' % rel})
    results = run(cases)
    out = {}
    for i, (lang, words) in enumerate(langs):
        r = results[4 * i + 3]
        assert r.get('ok'), r
        stems = dict((k, w) for k, w in r['rows'])
        out[lang] = [[w, stems[i]] for i, w in enumerate(words)]
    return out


def write_fts(name, oracle):
    with open(os.path.join(OUT, name), 'w') as f:
        # one line per document, analyzer, index relation and query
        parts = []
        for key, value in oracle.items():
            if isinstance(value, dict):
                items = ['  %s: %s' % (json.dumps(k), json.dumps(v, ensure_ascii=False))
                         for k, v in value.items()]
            else:
                items = ['  ' + json.dumps(v, ensure_ascii=False) for v in value]
            brackets = '{}' if isinstance(value, dict) else '[]'
            parts.append(' %s: %s\n%s\n %s' % (json.dumps(key), brackets[0], ',\n'.join(items),
                                                brackets[1]))
        f.write('{\n' + ',\n'.join(parts) + '\n}\n')


if __name__ == '__main__':
    os.makedirs(OUT, exist_ok=True)
    which = sys.argv[1:] or ['fts', 'cangjie', 'lsh', 'stemmers']
    if 'fts' in which:
        write_fts('fts-oracle.json', fts(DOCS, ANALYZERS, QUERIES))
    if 'cangjie' in which:
        write_fts('cangjie-oracle.json',
                  fts(cangjie_sentences(), CANGJIE_ANALYZERS, CANGJIE_QUERIES))
    if 'lsh' in which:
        with open(os.path.join(OUT, 'lsh-params.json'), 'w') as f:
            json.dump(lsh(), f, indent=1)
            f.write('\n')
    if 'stemmers' in which:
        with open(os.path.join(OUT, 'stemmers.json'), 'w') as f:
            items = ['  %s: %s' % (json.dumps(k), json.dumps(v, ensure_ascii=False))
                     for k, v in stemmers().items()]
            f.write('{\n' + ',\n'.join(items) + '\n}\n')
    print('written to', OUT)
