export default { hello: 'world' };
