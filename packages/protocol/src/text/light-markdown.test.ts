import { describe, expect, it } from 'vitest'
import { parseInline, parseLightMarkdown } from './light-markdown.ts'

const text = (value: string) => ({ type: 'text', text: value })

describe('parseInline', () => {
  it('returns plain text as one text node', () => {
    expect(parseInline('Hello, world')).toEqual([text('Hello, world')])
  })

  it('parses **bold**, __italic__ and `code`', () => {
    expect(parseInline('a **b** c __d__ e `f` g')).toEqual([
      text('a '),
      { type: 'bold', children: [text('b')] },
      text(' c '),
      { type: 'italic', children: [text('d')] },
      text(' e '),
      { type: 'code', text: 'f' },
      text(' g'),
    ])
  })

  it('nests emphasis and code', () => {
    expect(parseInline('**bold __both__ `x`**')).toEqual([
      {
        type: 'bold',
        children: [
          text('bold '),
          { type: 'italic', children: [text('both')] },
          text(' '),
          { type: 'code', text: 'x' },
        ],
      },
    ])
  })

  it('does not parse markers inside code', () => {
    expect(parseInline('run `**not bold**` now')).toEqual([
      text('run '),
      { type: 'code', text: '**not bold**' },
      text(' now'),
    ])
    expect(parseInline('``a ` b``')).toEqual([{ type: 'code', text: 'a ` b' }])
    expect(parseInline('**a `**` b**')).toEqual([
      { type: 'bold', children: [text('a '), { type: 'code', text: '**' }, text(' b')] },
    ])
  })

  it('keeps unmatched or spaced markers literal', () => {
    expect(parseInline('2 ** 3 and **open')).toEqual([text('2 ** 3 and **open')])
    expect(parseInline('a `b')).toEqual([text('a `b')])
    expect(parseInline('****')).toEqual([text('****')])
    expect(parseInline('snake__case__name')).toEqual([text('snake__case__name')])
  })

  it('keeps HTML as text', () => {
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([
      text('<img src=x onerror=alert(1)>'),
    ])
  })

  // Issue 20: the integration guide's answer showed raw `[x](y)` links.
  it('turns [text](https://…) into a link and any other target into its text alone', () => {
    expect(parseInline('See [the **API** docs](https://linear.app/developers) now')).toEqual([
      text('See '),
      {
        type: 'link',
        href: 'https://linear.app/developers',
        children: [text('the '), { type: 'bold', children: [text('API')] }, text(' docs')],
      },
      text(' now'),
    ])
    expect(parseInline('[mail us](mailto:help@example.com)')).toEqual([
      { type: 'link', href: 'mailto:help@example.com', children: [text('mail us')] },
    ])
    expect(parseInline('Read [tool-calls.md](../tool-calls.md).')).toEqual([
      text('Read '),
      text('tool-calls.md'),
      text('.'),
    ])
    expect(parseInline('[click](javascript:alert(1))')).toEqual([text('click'), text(')')])
    // Not links: spaces in the target, nothing to show, unclosed (still streaming), code.
    for (const literal of ['[a](b c)', '[](https://x.dev)', '[docs](https://x.d', 'a[0](1 2)']) {
      expect(parseInline(literal)).toEqual([text(literal)])
    }
    expect(parseInline('`[a](https://x.dev)`')).toEqual([
      { type: 'code', text: '[a](https://x.dev)' },
    ])
  })
})

describe('parseLightMarkdown', () => {
  it('turns headings 1-6 into heading nodes', () => {
    expect(parseLightMarkdown('# One\n###### Six ##\n####### Seven\n#nospace')).toEqual([
      { type: 'heading', level: 1, children: [text('One')] },
      { type: 'heading', level: 6, children: [text('Six')] },
      { type: 'line', children: [text('####### Seven')] },
      { type: 'line', children: [text('#nospace')] },
    ])
  })

  it('turns blank lines into one break each run, ignoring leading and trailing ones', () => {
    expect(parseLightMarkdown('\n\nfirst\nsecond\n\n\n\nthird\n\n')).toEqual([
      { type: 'line', children: [text('first')] },
      { type: 'line', children: [text('second')] },
      { type: 'break' },
      { type: 'line', children: [text('third')] },
    ])
  })

  it('parses fenced code blocks, even while the fence is still open', () => {
    expect(parseLightMarkdown('Run:\r\n```bash\nnpm **test**\n\n```\ndone')).toEqual([
      { type: 'line', children: [text('Run:')] },
      { type: 'code-block', language: 'bash', text: 'npm **test**\n' },
      { type: 'line', children: [text('done')] },
    ])
    expect(parseLightMarkdown('```\nconst a = 1')).toEqual([
      { type: 'code-block', language: '', text: 'const a = 1' },
    ])
  })

  it('turns secret-request tags into nodes', () => {
    expect(
      parseLightMarkdown('I need your key: <secret-request key="STRIPE_KEY" /> then I continue.'),
    ).toEqual([
      { type: 'line', children: [text('I need your key: ')] },
      { type: 'secret-request', key: 'STRIPE_KEY' },
      { type: 'line', children: [text(' then I continue.')] },
    ])
    expect(parseLightMarkdown("<secret-request key='A'></secret-request>")).toEqual([
      { type: 'secret-request', key: 'A' },
    ])
  })

  it('leaves secret-request tags in code as text', () => {
    expect(parseLightMarkdown('Write `<secret-request key="X" />` to ask')).toEqual([
      {
        type: 'line',
        children: [
          text('Write '),
          { type: 'code', text: '<secret-request key="X" />' },
          text(' to ask'),
        ],
      },
    ])
  })

  it('hides a secret-request tag that is still streaming', () => {
    expect(parseLightMarkdown('Please add it: <secret-request key="STR')).toEqual([
      { type: 'line', children: [text('Please add it: ')] },
    ])
    expect(parseLightMarkdown('a <b')).toEqual([{ type: 'line', children: [text('a <b')] }])
  })
})
