// The URL spellings the network policy's tests use on Node and inside workerd (no Node import here).
/**
 * Spellings for the policy's tests (net-policy, worker/net-policy): the reason each is refused,
 * from the IANA special-purpose address registries (RFC 6890 and its updates) and RFC 6761.
 */
export const REFUSED: readonly (readonly [string, string])[] = [
  ['http://localhost/', 'local-name'],
  ['http://LOCALHOST/', 'local-name'],
  ['http://localhost./', 'local-name'],
  ['http://%6c%6fcalhost/', 'local-name'],
  ['http://ｌｏｃａｌｈｏｓｔ/', 'local-name'], // fullwidth letters, mapped by IDNA
  ['http://books.localhost/', 'local-name'],
  ['http://nas.local/', 'local-name'],
  ['http://router/', 'local-name'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
  ['http://127.0.0.1/', 'loopback'],
  ['http://127.1/', 'loopback'],
  ['http://2130706433/', 'loopback'],
  ['http://0x7f000001/', 'loopback'],
  ['http://0177.0.0.1/', 'loopback'],
  ['http://0x7f.0.0.1/', 'loopback'],
  ['http://127.0.0.1.:8080/', 'loopback'],
  ['http://%31%32%37.0.0.1/', 'loopback'],
  ['http://[::1]/', 'loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', 'loopback'],
  ['http://[::ffff:127.0.0.1]/', 'loopback'],
  ['http://[::ffff:7f00:1]/', 'loopback'],
  ['http://[::127.0.0.1]/', 'loopback'],
  ['http://[64:ff9b::127.0.0.1]/', 'loopback'],
  ['http://[2002:7f00:1::]/', 'loopback'],
  ['http://0.0.0.0/', 'unspecified'],
  ['http://0/', 'unspecified'],
  ['http://[::]/', 'unspecified'],
  ['http://10.0.0.1/', 'private'],
  ['http://10.255.255.255/', 'private'],
  ['http://167772161/', 'private'], // 10.0.0.1
  ['http://172.16.0.1/', 'private'],
  ['http://172.31.255.255/', 'private'],
  ['http://192.168.1.1/', 'private'],
  ['http://100.64.0.1/', 'private'],
  ['http://[::ffff:10.0.0.1]/', 'private'],
  ['http://[fec0::1]/', 'private'],
  ['http://169.254.169.254/latest/meta-data/', 'metadata'],
  ['http://2852039166/', 'metadata'], // 169.254.169.254
  ['http://[::ffff:169.254.169.254]/', 'metadata'],
  ['http://[fd00:ec2::254]/', 'metadata'],
  ['http://100.100.100.200/', 'metadata'],
  ['http://169.254.1.1/', 'link-local'],
  ['http://[fe80::1]/', 'link-local'],
  ['http://[fd00::1]/', 'unique-local'],
  ['http://[fc00::]/', 'unique-local'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://240.0.0.1/', 'reserved'],
  ['http://192.0.2.1/', 'reserved'],
  ['http://198.18.0.1/', 'reserved'],
  ['http://[2001:db8::1]/', 'reserved'],
  ['http://[2001::1]/', 'reserved'], // Teredo
  ['file:///etc/passwd', 'scheme'],
  ['ftp://example.com/x', 'scheme'],
  ['data:image/png;base64,AAAA', 'scheme'],
  ['javascript:alert(1)', 'scheme'],
  ['not a url', 'invalid-url'],
];

export const ALLOWED = [
  'http://example.com/cover.jpg',
  'https://books.example.org:8443/a?b=c',
  'http://93.184.216.34/',
  'http://1.1.1.1/',
  'http://172.32.0.1/', // just past 172.16/12
  'http://100.128.0.1/', // just past 100.64/10
  'http://[2606:4700:4700::1111]/',
  'http://[::ffff:8.8.8.8]/',
];

/**
 * URLs of `/c.png` on a fixture listening on 127.0.0.1:`v4` and [::1]:`v6`, in every spelling of
 * loopback a stranger could write. `resolvable: false` leaves out `localhost.` (a trailing dot,
 * which this system's resolver does not know), for the controls that must reach the fixture.
 */
export function loopbackUrls(v4: number, v6: number, { resolvable = false } = {}): string[] {
  return [
    `http://127.0.0.1:${v4}/c.png`,
    `http://localhost:${v4}/c.png`,
    `http://LOCALHOST:${v4}/c.png`,
    ...(resolvable ? [] : [`http://LocalHost.:${v4}/c.png`]),
    `http://%6c%6fcalhost:${v4}/c.png`,
    `http://2130706433:${v4}/c.png`,
    `http://0x7f000001:${v4}/c.png`,
    `http://0177.0.0.1:${v4}/c.png`,
    `http://127.1:${v4}/c.png`,
    `http://[::ffff:127.0.0.1]:${v4}/c.png`,
    `http://[::ffff:7f00:1]:${v4}/c.png`,
    `http://[::1]:${v6}/c.png`,
    `http://[0:0:0:0:0:0:0:1]:${v6}/c.png`,
  ];
}
